/**
 * The report page's own script (plain browser JavaScript, inlined into report.html after uPlot):
 * reads the report data from the page and draws the charts. Kept as text: it runs in the browser,
 * not in Node.
 */
export const REPORT_SCRIPT = `
(function () {
  "use strict";
  var R = JSON.parse(document.getElementById("report-data").textContent);
  var S = R.series;
  var xs = S.day.map(function (d) { return Date.parse(d + "T00:00:00Z") / 1000; });
  var width = function (el) { return Math.max(320, el.clientWidth || 900); };
  var pct = function (v) { return v == null ? "" : (v * 100).toFixed(1) + "%"; };
  var money = function (v) { return v == null ? "" : Math.round(v).toLocaleString("en-US"); };
  var marks = [];
  R.trips.forEach(function (t) { marks.push({ x: Date.parse(t.day + "T00:00:00Z") / 1000, color: "#c62828", label: "trip" }); });
  R.resets.forEach(function (t) { marks.push({ x: Date.parse(t.day + "T00:00:00Z") / 1000, color: "#2e7d32", label: "reset" }); });
  function markPlugin() {
    return { hooks: { draw: [function (u) {
      var ctx = u.ctx;
      ctx.save();
      marks.forEach(function (m) {
        var x = Math.round(u.valToPos(m.x, "x", true));
        ctx.strokeStyle = m.color;
        ctx.lineWidth = 2 * devicePixelRatio;
        ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.fillStyle = m.color;
        ctx.font = (11 * devicePixelRatio) + "px sans-serif";
        ctx.fillText(m.label, x + 4 * devicePixelRatio, u.bbox.top + 12 * devicePixelRatio);
      });
      ctx.restore();
    }] } };
  }
  var drawn = [];
  function chart(id, opts, data) {
    var el = document.getElementById(id);
    opts.width = width(el);
    opts.height = opts.height || 300;
    var u = new uPlot(opts, data, el);
    drawn.push({ id: id, u: u, el: el });
    return u;
  }
  if (xs.length > 0) {
    chart("chart-value", {
      title: "Account value vs " + R.index_symbol + " bought and held",
      plugins: [markPlugin()],
      scales: { x: { time: true } },
      axes: [{}, { values: function (u, v) { return v.map(money); }, size: 70 }],
      series: [{}, { label: "account", stroke: "#1565c0", width: 2, value: function (u, v) { return money(v); } },
        { label: R.index_symbol + " buy & hold", stroke: "#888", width: 1.5, value: function (u, v) { return money(v); } }],
    }, [xs, S.value, S.index_value]);
    var limit = S.day.map(function () { return R.kill_switch.limit; });
    chart("chart-drawdown", {
      title: "Drawdown (kill switch at " + pct(R.kill_switch.limit) + ")",
      plugins: [markPlugin()],
      scales: { x: { time: true }, y: { range: function (u, min, max) { return [0, Math.max(max, R.kill_switch.limit) * 1.1]; } } },
      axes: [{}, { values: function (u, v) { return v.map(pct); }, size: 60 }],
      series: [{},
        { label: "from running high", stroke: "#6a1b9a", width: 1.5, fill: "rgba(106,27,154,0.08)", value: function (u, v) { return pct(v); } },
        { label: "kill switch's measure (confirmed peak)", stroke: "#ef6c00", width: 1, value: function (u, v) { return pct(v); } },
        { label: "kill-switch limit", stroke: "#c62828", width: 2, dash: [8, 4], value: function (u, v) { return pct(v); } }],
    }, [xs, S.drawdown, S.gate_drawdown, limit]);
    chart("chart-exposure", {
      title: "Exposure (share of value invested)",
      height: 180,
      plugins: [markPlugin()],
      scales: { x: { time: true }, y: { range: [0, 1] } },
      axes: [{}, { values: function (u, v) { return v.map(pct); }, size: 60 }],
      series: [{}, { label: "exposure", stroke: "#00838f", fill: "rgba(0,131,143,0.12)", value: function (u, v) { return pct(v); } }],
    }, [xs, S.exposure]);
  }
  var months = Object.keys(R.orders_by_month).sort();
  var HALF_MONTH = 16 * 86400;
  if (months.length > 0) {
    var mx = months.map(function (m) { return Date.parse(m + "-01T00:00:00Z") / 1000; });
    chart("chart-orders", {
      title: "Orders sent per month",
      height: 200,
      // Half a month of room each side, so the first and last bars are drawn whole, not cut at the plot's edge.
      scales: { x: { time: true, range: function (u, min, max) { return [min - HALF_MONTH, max + HALF_MONTH]; } } },
      series: [{}, { label: "orders", stroke: "#37474f", fill: "rgba(55,71,79,0.5)", paths: uPlot.paths.bars({ size: [0.8, 40] }), points: { show: false } }],
    }, [mx, months.map(function (m) { return R.orders_by_month[m]; })]);
  }
  window.addEventListener("resize", function () {
    drawn.forEach(function (c) { c.u.setSize({ width: width(c.el), height: c.u.height }); });
  });
  document.body.setAttribute("data-charts", String(drawn.length));
})();
`;
