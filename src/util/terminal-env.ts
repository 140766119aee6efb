/**
 * Call before Ink is first imported, on paths taken only when stdin and stdout are terminals.
 * Ink decides at import time (from CI / CONTINUOUS_INTEGRATION) to draw only a final frame; with a
 * person at the terminal that would hide the approval screen, so those variables are dropped here.
 */
export function prepareInkForTerminal(env: NodeJS.ProcessEnv = process.env): void {
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
}
