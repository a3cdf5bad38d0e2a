// One measurement of @vercel/agent-eval's transcript parser, in a fresh Node.js process.
// usage: node bench/peer_vercel.mjs <path to dist/lib/o11y/index.js> <transcript> <agent>
// Prints one JSON object, like bench/_measure.py: CPU seconds (read + parseTranscript), the peak
// RSS before (after the import) and after, in KiB, and the tool calls the parser found.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [, , modulePath, file, agent] = process.argv;
try {
  const { parseTranscript } = await import(pathToFileURL(modulePath).href);
  globalThis.gc?.();
  const base = process.resourceUsage().maxRSS;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const raw = readFileSync(file, 'utf8');
  const transcript = parseTranscript(raw, agent);
  const t1 = process.hrtime.bigint();
  const cpu = process.cpuUsage(c0);
  const peak = process.resourceUsage().maxRSS;
  const calls = transcript.events.filter((e) => e.type === 'tool_call').length;
  console.log(JSON.stringify({
    ok: true,
    // CPU time of the main thread's process (user + system), like process_time in Python;
    // Node's GC helper threads count too, which is work the parse caused.
    seconds: (cpu.user + cpu.system) / 1e6,
    wall_seconds: Number(t1 - t0) / 1e9,
    rss_base_kb: base,
    rss_peak_kb: peak,
    calls,
    events: transcript.events.length,
    parse_errors: (transcript.parseErrors || []).length,
  }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: String(e && e.stack || e).slice(0, 500) }));
}
