// Fills a database with Emmett's PostgreSQL event store
// (@event-driven-io/emmett-postgresql) through its own API: appendToStream,
// one or several events per append, with and without an expected version.
//   node fill-emmett.mjs DATABASE EVENTS     (the cluster from PG*)
import { getPostgreSQLEventStore } from "@event-driven-io/emmett-postgresql";

const [database, wanted] = [process.argv[2], Number(process.argv[3])];
const socket = encodeURIComponent(process.env.PGHOST);
const store = getPostgreSQLEventStore(
  `postgresql://${process.env.PGUSER}@${socket}:${process.env.PGPORT}/${database}`,
);
let written = 0;
for (let i = 0; written < wanted; i++) {
  const stream = `shoppingCart-${i % 71}`;
  const many = i % 4 === 0 && wanted - written >= 3;
  const events = (many ? [0, 1, 2] : [0]).map((k) => ({
    type: k === 2 ? "ShoppingCartConfirmed" : "ProductItemAdded",
    data: { productItem: { productId: `p${i}-${k}`, quantity: k + 1, price: i / 4 }, note: `"q" \\ ü` },
    metadata: { tenant: `t${i % 3}` },
  }));
  await store.appendToStream(stream, events);
  written += events.length;
}
await store.close();
console.log(written);
