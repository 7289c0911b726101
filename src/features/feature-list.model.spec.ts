import type { DataSource, EntityManager } from 'typeorm';
import type { EventsService } from '../events/events.service';
import { FeatureListModel, KEEP_AT_MOST, listItemsReached } from './feature-list.model';

/** A MySQL-family data source whose every statement answers `rows`. */
function answering(rows: unknown[]): { dataSource: DataSource; sent: string[] } {
  const sent: string[] = [];
  const dataSource = {
    options: { type: 'mariadb' },
    serverDialect: 'mariadb',
    query: async (sql: string) => {
      sent.push(sql);
      return rows;
    },
  } as unknown as DataSource;
  return { dataSource, sent };
}

/** The model over `dataSource`, with an event log that is never written here. */
function modelOver(dataSource: DataSource): FeatureListModel {
  return new FeatureListModel(dataSource, { follow: () => undefined } as unknown as EventsService);
}

describe('FeatureListModel: keeping what a list wrote', () => {
  const row = (name: string, missing: string) => ({
    name,
    open: Buffer.from(`{"name":"${name}"`),
    missing,
  });

  it('keeps items only after a list that found some missing, and at most KEEP_AT_MOST at once', async () => {
    const kept = answering([row('a', '0'), row('b', '0')]);
    const items = await modelOver(kept.dataSource).ofProject('p');
    expect(items.map((item) => [item.name, item.open.toString()])).toEqual([
      ['a', '{"name":"a"'],
      ['b', '{"name":"b"'],
    ]);
    expect(kept.sent).toHaveLength(1);

    // mysql2 hands the CASE's 0 or 1 over as a string or a number.
    const missing = answering([row('a', '0'), { ...row('b', '1'), missing: 1 }]);
    await modelOver(missing.dataSource).ofProject('p');
    expect(missing.sent).toHaveLength(2);
    expect(missing.sent[1]).toMatch(/^INSERT INTO feature_list_items /);
    expect(missing.sent[1]).toContain(`LIMIT ${KEEP_AT_MOST}`);
  });

  it('reads the rows in name order, which the index (project_id, archived_at, name) gives', async () => {
    const { dataSource, sent } = answering([]);
    await modelOver(dataSource).ofProject('p');
    expect(sent[0]).toMatch(
      /WHERE f\.project_id = \? AND f\.archived_at IS NULL ORDER BY f\.name$/,
    );
  });
});

describe('listItemsReached: which kept items a write makes stale', () => {
  it('names the changed feature, and both ends of a dependency', () => {
    expect(
      listItemsReached([
        { type: 'feature-strategy-add', featureName: 'b' },
        { type: 'feature-tagged', featureName: 'a' },
        { type: 'feature-dependency-added', featureName: 'c', data: { feature: 'p1' } },
        { type: 'feature-dependency-removed', featureName: 'c', preData: { feature: 'p2' } },
      ]),
    ).toEqual({ all: false, features: ['a', 'b', 'c', 'p1', 'p2'] });
  });

  it('names none for changes outside the items', () => {
    expect(
      listItemsReached([
        { type: 'feature-favorited', featureName: 'a' },
        { type: 'segment-updated' },
        { type: 'features-exported' },
      ]),
    ).toEqual({ all: false, features: [] });
  });

  it('reaches every item for a change without a feature, one reaching unnamed features, or an unknown one', () => {
    for (const change of [
      { type: 'environment-updated', environment: 'dev' },
      { type: 'features-imported' },
      { type: 'feature-deleted', featureName: 'a' },
      { type: 'feature-dependencies-removed', featureName: 'c' },
      { type: 'feature-dependency-added', featureName: 'c', data: {} },
      { type: 'something-new' },
    ]) {
      expect(listItemsReached([{ type: 'feature-tagged', featureName: 'a' }, change])).toEqual({
        all: true,
        features: [],
      });
    }
  });
});

describe('FeatureListModel.follow: what a write bumps, in its transaction', () => {
  async function followed(features: number): Promise<Array<[string, unknown[] | undefined]>> {
    const sent: Array<[string, unknown[] | undefined]> = [];
    const tx = {
      query: async (sql: string, params?: unknown[]) => void sent.push([sql, params]),
    } as unknown as EntityManager;
    const changes = Array.from({ length: features }, (_, i) => ({
      type: 'feature-revived',
      featureName: `f-${String(i).padStart(4, '0')}`,
    }));
    await modelOver(answering([]).dataSource).follow(tx, changes);
    return sent;
  }

  it("bumps the named features' stamps, one placeholder each", async () => {
    const [[sql, params], ...more] = await followed(2);
    expect(sql).toMatch(
      /^UPDATE features SET list_stamp = list_stamp \+ 1\s+WHERE name IN \(\?, \?\)$/,
    );
    expect(params).toEqual(['f-0000', 'f-0001']);
    expect(more).toEqual([]);
  });

  it('bumps the generation instead past 500 features, and nothing for no change', async () => {
    expect((await followed(500))[0][0]).toMatch(/^UPDATE features /);
    expect(await followed(501)).toEqual([
      ['UPDATE feature_list_generation SET generation = generation + 1 WHERE id = 1', undefined],
    ]);
    expect(await followed(0)).toEqual([]);
  });
});
