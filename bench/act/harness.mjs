// The reference's timing rules (Act's realistic and regression benches): a
// scenario's setup runs once, then warm-up iterations, then timed ones, each
// optionally preceded by an untimed step; p50 = sorted[floor(n * 0.5)],
// p95 = sorted[floor(n * 0.95)], ops_per_s = 1000 / mean. One JSON record
// per scenario on stdout. Knows nothing of Act: the drivers pass closures.
import { performance } from "node:perf_hooks";

export const quick = Boolean(process.env.BENCH_QUICK && process.env.BENCH_QUICK !== "0");

/** Full or quick iteration count. */
export const pick = (full, short) => (quick ? short : full);

/**
 * Times one scenario and prints its record.
 * spec: { name, iterations, warmup, batch, setup?, before?(i), unit(i, retry), concurrent? }
 * batch is how many commits one timed unit makes (commits_per_s); a
 * concurrent scenario wraps its actions in retry and its record counts the
 * conflicts a timed unit met (conflicts_per_unit). A scenario that fails
 * prints a record with its error (bench/run.sh lists those) and the next
 * one runs.
 */
export async function measure(store, framework, spec, is_conflict = says_concurrency) {
  try {
    console.log(JSON.stringify(await timed(store, framework, spec, is_conflict)));
  } catch (error) {
    console.error(error);
    console.log(JSON.stringify({ scenario: `act/${spec.name}/${store}`, store, framework, error: String(error?.message ?? error) }));
  }
}

/** The reference's test for a lost race: Act's ConcurrencyError says so. */
export const says_concurrency = (error) => String(error?.message).includes("Concurrency");

async function timed(store, framework, spec, is_conflict) {
  await spec.setup?.();
  const conflicts = { count: 0 };
  const retry = retrying(50, conflicts, is_conflict);
  const run = async (i) => {
    await spec.before?.(i);
    const start = performance.now();
    await spec.unit(i, retry);
    return performance.now() - start;
  };
  for (let i = 0; i < spec.warmup; i++) await run(-1 - i);
  conflicts.count = 0;
  const samples = [];
  for (let i = 0; i < spec.iterations; i++) samples.push(await run(i));
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((sum, s) => sum + s, 0) / samples.length;
  const ops = 1000 / mean;
  const round = (x, digits) => Number(x.toFixed(digits));
  return {
    scenario: `act/${spec.name}/${store}`,
    store,
    framework,
    samples: samples.length,
    batch: spec.batch,
    p50_ms: round(samples[Math.floor(samples.length * 0.5)], 3),
    p95_ms: round(samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.95))], 3),
    ops_per_s: round(ops, 1),
    commits_per_s: round(ops * spec.batch, 1),
    ...(spec.concurrent ? { conflicts_per_unit: round(conflicts.count / samples.length, 1) } : {}),
  };
}

/**
 * The reference's retry loop for concurrent actions: up to `attempts` tries,
 * again only after a lost race. Counts the conflicts seen.
 */
function retrying(attempts, conflicts, is_conflict) {
  return async (step) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await step();
      } catch (error) {
        if (attempt >= attempts || !is_conflict(error)) throw error;
        conflicts.count++;
      }
    }
  };
}

/**
 * Runs a driver's body. Act's handlers take unhandled rejections and, under
 * NODE_ENV=test, let the process end with status 0: a failure is caught here
 * and the status set, so the suite sees it.
 */
export async function main(body) {
  try {
    await body();
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
