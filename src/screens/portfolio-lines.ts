/** The portfolio as lines (run and approval screens), pure. */
import type { PortfolioView } from "../core/domain.js";
import { currencyDigits, money, pct, price, quantity, signedMoney } from "../printers/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import type { Line } from "./components.js";
import { fitSegments, padEnd, padStart } from "./text.js";

/** Holdings with quantity, value, weight and unrealised P&L; cash now and after; the last run's fills. */
export function portfolioLines(p: PortfolioView, cashAfterProposal: number | null, width: number, maxHoldings: number): Line[] {
  const cur = p.currency;
  const digits = currencyDigits(cur);
  const out: Line[] = [];
  out.push({
    tone: "plain",
    text: fitSegments(
      [
        {
          text: `cash ${money(p.cash, cur)}${cashAfterProposal !== null ? ` → ${money(cashAfterProposal, cur)} after the approvable orders` : ""}`,
          priority: 10,
        },
        { text: `value ${money(p.value, cur)}`, priority: 5 },
        { text: `${p.holdings.length} holding(s)`, priority: 3 },
      ],
      width,
    ),
  });
  const wide = width >= 100;
  const shown = p.holdings.slice(0, Math.max(0, maxHoldings));
  if (shown.length > 0)
    out.push({
      tone: "dim",
      text: `  ${padEnd("symbol", 9)}${padStart("qty", 10)} ${padStart(`value ${cur}`.trim(), 14)} ${padStart("weight", 7)} ${padStart(`unrealised ${cur}`.trim(), 14)}${wide ? ` ${padStart("price", 11)}` : ""}`,
    });
  for (const h of shown) {
    const pnl = h.unrealised_pnl;
    out.push({
      tone: pnl === null ? "warn" : pnl < 0 ? "error" : pnl > 0 ? "ok" : "plain",
      text: `  ${padEnd(sanitizeLine(h.symbol), 9)}${padStart(quantity(h.quantity), 10)} ${padStart(h.value === null ? "unpriced" : money(h.value, "", digits), 14)} ${padStart(h.weight === null ? "—" : pct(h.weight * 100, 1), 7)} ${padStart(pnl === null ? "—" : signedMoney(pnl, "", digits), 14)}${wide ? ` ${padStart(h.price === null ? "—" : price(h.price), 11)}` : ""}`,
    });
  }
  if (p.holdings.length > shown.length) out.push({ tone: "dim", text: `  …and ${p.holdings.length - shown.length} more (p: the whole portfolio)` });
  const f = p.last_fills;
  out.push({
    tone: "dim",
    text: f.length
      ? `last fills (day ${f[0]?.trading_day ?? "?"}): ${f.map((x) => `${x.side} ${quantity(x.quantity)} ${sanitizeLine(x.symbol)} @ ${price(x.price)}`).join(", ")}`
      : "last fills: none yet",
  });
  return out;
}
