/** TEMPORARY compile-time proof: the schema-derived event types equal the hand-written ones (events-old.ts). */
import type * as N from "./events.js";
import type * as O from "./events-old.js";
type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Each<U extends { type: string }, V extends { type: string }> = {
  [K in U["type"]]: Mutual<Extract<U, { type: K }>, Extract<V, { type: K }>>;
};
const ok = <_T extends true>() => {};
ok<Eq<N.ToolIssue, O.ToolIssue>>();
ok<Mutual<N.Correction, O.Correction>>();
ok<Eq<N.PendingError, O.PendingError>>();
ok<Eq<N.Usage, O.Usage>>();
ok<Eq<N.AgentOutcome, O.AgentOutcome>>();
ok<Eq<N.RunOutcome, O.RunOutcome>>();
ok<Eq<N.ReconcileDifference, O.ReconcileDifference>>();
ok<Eq<N.OrderEventBase, O.OrderEventBase>>();
ok<Eq<N.RunEventType, O.RunEventType>>();
ok<Mutual<N.RunEventBody, O.RunEventBody>>();
ok<Mutual<N.RunEvent, O.RunEvent>>();
const each: Each<N.RunEventBody, O.RunEventBody> = null as never;
const allTrue: { [K in N.RunEventType]: true } = each;
const each2: Each<O.RunEventBody, N.RunEventBody> = null as never;
const allTrue2: { [K in O.RunEventType]: true } = each2;
const each3: Each<N.RunEvent, O.RunEvent> = null as never;
const allTrue3: { [K in N.RunEventType]: true } = each3;
void allTrue;
void allTrue2;
void allTrue3;
