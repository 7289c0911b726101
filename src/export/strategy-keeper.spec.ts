import { StrategyKeeper } from './strategy-keeper';

/** Feeds the keeper rows as the cold export does: the feature first, then the item's text. */
function feed(keeper: StrategyKeeper, rows: Array<[string, string, string?]>): void {
  for (const [feature, item, context] of rows) {
    const names = keeper.next(feature);
    if (context) names?.contextNames.add(context);
    keeper.add(item);
  }
}

describe('StrategyKeeper', () => {
  it('keeps each stale feature with its items in order, what they name, and none for one with no rows', () => {
    const keeper = new StrategyKeeper([
      { name: 'a', stamp: 1 },
      { name: 'b', stamp: 2 },
      { name: 'c', stamp: 3 },
    ]);
    feed(keeper, [
      ['a', '{"a":1}', 'region'],
      ['a', '{"a":2}'],
      ['current', '{"x":1}', 'other'],
      ['c', '{"c":1}'],
    ]);
    expect(keeper.done()).toEqual([
      { name: 'a', stamp: 1, items: '{"a":1},{"a":2}', names: '[["region"],[]]' },
      { name: 'b', stamp: 2, items: '', names: '[[],[]]' },
      { name: 'c', stamp: 3, items: '{"c":1}', names: '[[],[]]' },
    ]);
  });

  it('gives no record for a feature that is not stale', () => {
    const keeper = new StrategyKeeper([{ name: 'a', stamp: 1 }]);
    expect(keeper.next('b')).toBeNull();
    keeper.add('{"b":1}');
    expect(keeper.done()).toEqual([{ name: 'a', stamp: 1, items: '', names: '[[],[]]' }]);
  });

  it('past its bytes, stops at the next feature and keeps nothing from there on', () => {
    // 'a' fills the room; 'b' is not started; 'a-' (before 'b' in byte order) had no rows and
    // is kept empty; 'c' had no rows either but comes after the stop, so it may have had some.
    const keeper = new StrategyKeeper(
      [
        { name: 'a', stamp: 1 },
        { name: 'a-', stamp: 1 },
        { name: 'b', stamp: 1 },
        { name: 'c', stamp: 1 },
      ],
      10,
    );
    feed(keeper, [
      ['a', '{"a":"123456789"}'],
      ['a', '{"a":2}'],
      ['b', '{"b":1}'],
    ]);
    expect(keeper.done().map((kept) => [kept.name, kept.items])).toEqual([
      ['a', '{"a":"123456789"},{"a":2}'],
      ['a-', ''],
    ]);
  });
});
