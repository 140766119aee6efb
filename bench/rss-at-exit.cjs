// Preloaded into a benchmarked CLI process (node --require): at exit, writes its peak resident
// memory and CPU time to $TW_BENCH_USAGE_FILE.
process.on("exit", () => {
  const u = process.resourceUsage();
  require("node:fs").writeFileSync(
    process.env.TW_BENCH_USAGE_FILE,
    JSON.stringify({ max_rss_kb: u.maxRSS, user_ms: u.userCPUTime / 1000, system_ms: u.systemCPUTime / 1000 }),
  );
});
