// The types of validators.generated.js (scripts/validators-source.ts generates it; this file is written by hand).
import type { Static } from "@sinclair/typebox";
import type { ValidateFunction } from "ajv";
import type { CONFIG_SCHEMA } from "./schema.js";

export declare const config: ValidateFunction;
export declare const scenario: ValidateFunction;
export declare const researchCycle: ValidateFunction;
export declare const tradecat: ValidateFunction;
/** Each tool's arguments (the current catalogue), by tool name. */
export declare const tools: Readonly<Record<string, ValidateFunction>>;
/** The config an empty document gives (its validated defaults; tests/config/validators-generated.test.ts keeps it so). */
export declare const configDefaults: Static<typeof CONFIG_SCHEMA>;
/** The journal's head document, a schema 1 journal's trips and resets, and each event body by type. */
export declare const journalHead: ValidateFunction;
export declare const journalTrips: ValidateFunction;
export declare const journalResets: ValidateFunction;
export declare const journalEvents: Readonly<Record<string, ValidateFunction | undefined>>;
/** The simulated broker's state document and its write-ahead log records. */
export declare const simState: ValidateFunction;
export declare const simLogRecord: ValidateFunction;
/** simulation.json, as `simulate list/report/compare` read it. */
export declare const simulationMeta: ValidateFunction;
/** Each recorded run event's types-only schema (the audit's check of events.jsonl), by event type. */
export declare const auditEvents: Readonly<Record<string, ValidateFunction | undefined>>;
