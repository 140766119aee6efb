import { join } from "node:path";
import { SimBroker } from "../../src/broker/simulated.js";
import { MarketData } from "../../src/market/data.js";

/** Buys shares at the simulated broker behind the journal's back (someone's manual order). */
export async function strayBuy(home: string, symbol: string, quantity: number): Promise<void> {
  const market = MarketData.load({ home });
  const sim = SimBroker.open({ market, path: join(home, "sim-broker.json"), closeAfterWork: true });
  const day = sim.beginDay();
  const bar = market.barOn(symbol, day);
  if (!bar) throw new Error(`no ${symbol} bar on ${day}`);
  await sim.placeLimitDayOrder({ client_order_id: "manual-order-1", symbol, side: "BUY", quantity, limit_price: Math.ceil(bar.high * 101) / 100 });
  const status = (await sim.orderByClientId("manual-order-1"))?.status;
  if (status !== "filled") throw new Error(`the stray order is ${status}, not filled`);
  sim.endDay();
}
