// The reference's bench domains (Counter, Ticket, Calc, Inventory), built
// with the Act given: 1.31 names a state and an action in an object
// (state({ Name: schema }), .on({ name: schema })), 0.5 in two arguments.
export function domains(Act, z, version) {
  const named = (name, schema) => (version.startsWith("0.") ? [name, schema] : [{ [name]: schema }]);
  const state = (name, schema) => Act.state(...named(name, schema));
  const Empty = z.object({});
  const Counter = state("Counter", z.object({ count: z.number() }))
    .init(() => ({ count: 0 }))
    .emits({ Inc: Empty })
    .patch({ Inc: (_, s) => ({ count: s.count + 1 }) })
    .on(...named("inc", Empty))
    .emit(() => ["Inc", {}])
    .build();

  const Ticket = state("Ticket", z.object({ status: z.enum(["new", "assigned", "closed"]), assignee: z.string().optional() }))
    .init(() => ({ status: "new" }))
    .emits({
      TicketOpened: z.object({ title: z.string() }),
      TicketAssigned: z.object({ assignee: z.string() }),
      TicketClosed: z.object({ resolution: z.string() }),
    })
    .patch({
      TicketOpened: () => ({ status: "new" }),
      TicketAssigned: ({ data }) => ({ status: "assigned", assignee: data.assignee }),
      TicketClosed: () => ({ status: "closed" }),
    })
    .on(...named("open", z.object({ title: z.string() })))
    .emit(({ title }) => ["TicketOpened", { title }])
    .on(...named("assign", z.object({ assignee: z.string() })))
    .given([{ description: "must be new", valid: (s) => s.status === "new" }])
    .emit(({ assignee }) => ["TicketAssigned", { assignee }])
    .on(...named("close", z.object({ resolution: z.string() })))
    .given([{ description: "must be assigned", valid: (s) => s.status === "assigned" }])
    .emit(({ resolution }) => ["TicketClosed", { resolution }])
    .build();

  const Calc = state("Calc", z.object({ value: z.number() }))
    .init(() => ({ value: 0 }))
    .emits({ DigitPressed: z.object({ digit: z.number() }) })
    .patch({ DigitPressed: ({ data }, s) => ({ value: s.value * 10 + data.digit }) })
    .on(...named("press", z.object({ digit: z.number() })))
    .emit(({ digit }) => ["DigitPressed", { digit }])
    .build();

  const Inventory = state("Inventory", z.object({ stock: z.number() }))
    .init(() => ({ stock: 1000 }))
    .emits({ Reserved: z.object({ qty: z.number() }) })
    .patch({ Reserved: ({ data }, s) => ({ stock: s.stock - data.qty }) })
    .on(...named("reserve", z.object({ qty: z.number() })))
    .given([{ description: "stock must be positive", valid: (s) => s.stock > 0 }])
    .emit(({ qty }) => ["Reserved", { qty }])
    .build();

  return { Counter, Ticket, Calc, Inventory };
}
