import { openStore } from '../src/db/store.js';
import { migrateDatabase } from '../src/db/create-db.js';
const url = `file:/tmp/wr/tx-${process.pid}.db`;
await migrateDatabase(url);
const store = await openStore(url);
const db = store.db;
const N = 3000;
for (let round = 0; round < 3; round++) {
  let c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await db.prisma.$transaction(async () => {});
  let c = process.cpuUsage(c0);
  console.log('empty $transaction us/op', ((c.user + c.system) / N).toFixed(1));
  c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await store.write(async () => {});
  c = process.cpuUsage(c0);
  console.log('store.write(empty) us/op', ((c.user + c.system) / N).toFixed(1));
  c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await store.read.events.after(1e9, 100);
  c = process.cpuUsage(c0);
  console.log('events.after us/op', ((c.user + c.system) / N).toFixed(1));
  c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await store.changeMarker();
  c = process.cpuUsage(c0);
  console.log('changeMarker us/op', ((c.user + c.system) / N).toFixed(1));
}
await store.close();
