import 'reflect-metadata';
import Database from 'better-sqlite3';
import { EventsStore } from '../src/events/events.store';
const db = new Database('/tmp/peer/new.sqlite', { readonly: true });
let captured = '';
const fake: any = { options: { type: 'better-sqlite3' }, query: async (sql: string, params: unknown[]) => { captured = sql; return db.prepare(sql).all(...params); } };
const store = new EventsStore(fake);
const names = { list: 'SELECT name FROM features WHERE project_id = ? AND archived_at IS NULL', params: ['default'] };
(async () => {
  const r: number[] = [];
  for (let i = 0; i < 11; i++) { const a = process.hrtime.bigint(); await store.people(names); r.push(Number(process.hrtime.bigint() - a) / 1e6); }
  r.sort((x, y) => x - y);
  console.log('people median', r[5].toFixed(1), 'min', r[0].toFixed(1));
  console.log(db.prepare('EXPLAIN QUERY PLAN ' + captured).all('default', 'default').map((x: any) => x.detail).join('\n'));
  console.log(db.prepare('select count(*) c from events').get());
})();
