// The reference's scenarios (Act's perf-bench and realistic-bench), run on
// whatever Act and store the driver set up. target gives:
//   store, framework         names for the records
//   Act, z                   the Act module and its zod
//   fresh()                  an empty store (and cache): the reference's fresh ports
//   clear_cache              clears Act's state cache; absent on an Act without one,
//                            whose loads always replay (no warm-load scenario then)
//   with_state(builder, S)   adds a state to an act() builder
//   reaction_target(stream)  what the calculator's resolver returns for a stream
//   build_reactive(builder)  builds the calculator's app (default: build())
//   project(app)             what runs the calculator's projection after its commits
//   is_conflict(error)       a lost race, retried (default: Act's ConcurrencyError)
import { domains } from "./domains.mjs";
import { measure, pick } from "./harness.mjs";

export async function run_scenarios(target) {
  const { Act, store, framework } = target;
  const { Counter, Ticket, Calc, Inventory } = domains(Act, target.z, target.version);
  const build = (S) => target.with_state(Act.act(), S).build();
  const bench = (spec) => measure(store, framework, spec, target.is_conflict);
  const actor = { id: "u", name: "u" };
  const tag = (i) => (i < 0 ? `w${-i}` : `${i}`);

  const counter = build(Counter);
  const inc = (stream) => counter.do("inc", { stream, actor }, {});
  await bench({
    name: "single_commit", iterations: pick(200, 20), warmup: 10, batch: 1, setup: target.fresh,
    unit: () => inc("hot"),
  });
  if (target.clear_cache) {
    await bench({
      name: "load_warm", iterations: pick(500, 50), warmup: 10, batch: 0,
      setup: async () => {
        await target.fresh();
        await inc("warm");
        await counter.load(Counter, "warm");
      },
      unit: () => counter.load(Counter, "warm"),
    });
  }
  await bench({
    name: "load_cold_100", iterations: pick(100, 20), warmup: 10, batch: 0,
    setup: async () => {
      await target.fresh();
      for (let i = 0; i < 100; i++) await inc("cold");
    },
    before: target.clear_cache,
    unit: () => counter.load(Counter, "cold"),
  });
  // 20 writers on a stream that already has an event, so every commit is
  // guarded and all writers but one a round conflict (the reference's fresh
  // stream is committed unguarded and never conflicts).
  await bench({
    name: "contended_20", iterations: pick(30, 5), warmup: 2, batch: 20, setup: target.fresh, concurrent: true,
    before: (i) => inc(`contended-${tag(i)}`),
    unit: (i, retry) => Promise.all(Array.from({ length: 20 }, () => retry(() => inc(`contended-${tag(i)}`)))),
  });

  const tickets = build(Ticket);
  await bench({
    name: "ticket_workflow", iterations: pick(100, 20), warmup: 5, batch: 3, setup: target.fresh,
    unit: async (i) => {
      const ticket = { stream: `tk-${tag(i)}`, actor };
      await tickets.do("open", ticket, { title: "perf" });
      await tickets.do("assign", ticket, { assignee: "alice" });
      await tickets.do("close", ticket, { resolution: "fixed" });
    },
  });

  const calculator = target
    .with_state(Act.act(), Calc)
    .on("DigitPressed")
    .do(async function projectDigit() {})
    .to((event) => target.reaction_target(`digits-${event.stream}`));
  const calculator_app = target.build_reactive ? target.build_reactive(calculator) : calculator.build();
  await bench({
    name: "calculator_projection", iterations: pick(50, 10), warmup: 5, batch: 10, setup: target.fresh,
    unit: async (i) => {
      const session = { stream: `calc-${tag(i)}`, actor };
      for (let d = 0; d < 10; d++) await calculator_app.do("press", session, { digit: d % 10 });
      await target.project(calculator_app);
    },
  });

  // As the reference: a new stream each round, so its commits are unguarded.
  const inventory = build(Inventory);
  await bench({
    name: "shared_inventory", iterations: pick(50, 10), warmup: 5, batch: 10, setup: target.fresh, concurrent: true,
    unit: (i, retry) => {
      const stock = { stream: `inv-${tag(i)}`, actor };
      return Promise.all(Array.from({ length: 10 }, () => retry(() => inventory.do("reserve", stock, { qty: 1 }))));
    },
  });
}
