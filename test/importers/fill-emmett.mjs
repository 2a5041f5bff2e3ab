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
// Eight writers at once, each on streams of its own (the stream count is a
// multiple of eight).
const writers = 8;
let written = 0;
async function writer(k) {
  for (let i = k; written < wanted; i += writers) {
    const stream = `shoppingCart-${i % 72}`;
    const many = i % 4 === 0 && wanted - written >= 3;
    const events = (many ? [0, 1, 2] : [0]).map((j) => ({
      type: j === 2 ? "ShoppingCartConfirmed" : "ProductItemAdded",
      data: { productItem: { productId: `p${i}-${j}`, quantity: j + 1, price: i / 4 }, note: `"q" \\ ü` },
      metadata: { tenant: `t${i % 3}` },
    }));
    written += events.length;
    await store.appendToStream(stream, events);
  }
}
await Promise.all([...Array(writers).keys()].map(writer));
await store.close();
console.log(written);
