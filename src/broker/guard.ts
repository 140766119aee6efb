/**
 * The paper guard: tradewarden never talks to a live account. The endpoint is checked before any
 * network I/O, the account when connecting and again before every order.
 */
import { EXIT } from "../core/exit-codes.js";
import { BrokerError } from "./errors.js";
import type { Broker, BrokerAccount, BrokerEndpoint, BrokerOrder, PlaceOrderRequest } from "./types.js";

export const ALPACA_PAPER_HOST = "paper-api.alpaca.markets";
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export interface GuardOptions {
  /** Accept an http(s) loopback URL for the alpaca kind (tests against a loopback fake). */
  allowLoopback?: boolean;
}

const refuse = (message: string) => new BrokerError("not_paper", message, EXIT.USAGE_OR_CONFIG);

/** Throws unless the endpoint is a paper endpoint. */
export function assertPaperEndpoint(ep: BrokerEndpoint, opts: GuardOptions = {}): void {
  if (ep.paper !== true) throw refuse(`refusing a non-paper broker endpoint (${ep.kind} ${ep.url}): live trading is not a mode of tradewarden`);
  if (ep.kind === "sim") {
    if (!ep.url.startsWith("sim:")) throw refuse(`simulated broker endpoint must be a sim: URL, got ${ep.url}`);
    return;
  }
  let url: URL;
  try {
    url = new URL(ep.url);
  } catch {
    throw refuse(`broker URL ${ep.url} is not a valid URL`);
  }
  const loopback = LOOPBACK.has(url.hostname);
  if (loopback && opts.allowLoopback) return;
  // The default https port only: ":8443" or ":80" on the paper host is not Alpaca's paper API.
  if (url.protocol !== "https:" || url.hostname !== ALPACA_PAPER_HOST || (url.port !== "" && url.port !== "443")) {
    throw refuse(`refusing broker URL ${ep.url}: only https://${ALPACA_PAPER_HOST} (paper, port 443) is allowed`);
  }
}

/** Throws unless the account is a paper account of the endpoint's kind and may trade. */
export function assertPaperAccount(ep: BrokerEndpoint, account: BrokerAccount): void {
  if (account.paper !== true) throw refuse(`account ${account.account_id} is not a paper account`);
  const pattern = ep.kind === "sim" ? /^SIM-PAPER-[0-9A-F]+$/ : /^PA[0-9A-Z]+$/;
  if (!pattern.test(account.account_id)) throw refuse(`account id ${account.account_id} does not look like a ${ep.kind} paper account`);
}

/** Wraps a broker: checks the endpoint now, the account on `connect()` and before every order. */
export class GuardedBroker implements Broker {
  private readonly ep: BrokerEndpoint;

  constructor(
    private readonly inner: Broker,
    opts: GuardOptions = {},
  ) {
    this.ep = inner.endpoint();
    assertPaperEndpoint(this.ep, opts);
  }

  async connect(): Promise<BrokerAccount> {
    const account = await this.inner.account();
    assertPaperAccount(this.ep, account);
    return account;
  }

  endpoint(): BrokerEndpoint {
    return this.ep;
  }
  clock() {
    return this.inner.clock();
  }
  account() {
    return this.inner.account();
  }
  positions() {
    return this.inner.positions();
  }
  openOrders() {
    return this.inner.openOrders();
  }
  async placeLimitDayOrder(req: PlaceOrderRequest): Promise<BrokerOrder> {
    const account = await this.inner.account();
    assertPaperAccount(this.ep, account);
    if (account.trading_blocked)
      throw new BrokerError("order_rejected", `account ${account.account_id} is blocked from trading`, EXIT.BROKER_OR_DATA_UNAVAILABLE);
    return this.inner.placeLimitDayOrder(req);
  }
  orderByClientId(id: string) {
    return this.inner.orderByClientId(id);
  }
  cancel(id: string) {
    return this.inner.cancel(id);
  }
  fills(id: string) {
    return this.inner.fills(id);
  }
}
