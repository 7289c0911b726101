import type { FeaturePeople } from '../events/events.store';
import type { FeatureListModel } from './feature-list.model';
import type { FeaturePeopleService } from './feature-people.service';
import { FeaturesService } from './features.service';

/** A FeaturesService whose list reads come from these stand-ins; nothing else is reachable. */
function serviceWith(options: {
  people?: Map<string, FeaturePeople>;
  favorites?: Set<string>;
  items: Array<{ name: string; open: string }>;
}) {
  const calls: string[] = [];
  const people = {
    of: async () => {
      calls.push('people');
      return { people: options.people ?? new Map(), favorites: options.favorites ?? new Set() };
    },
  } as unknown as FeaturePeopleService;
  const listModel = {
    namesOfProject: () => ({ list: 'SELECT 1', params: [] }),
    ofProject: async () => {
      calls.push('rows');
      return options.items.map((item) => ({ name: item.name, open: Buffer.from(item.open) }));
    },
  } as unknown as FeatureListModel;
  const projects = { assertExists: async () => undefined };
  const none = {} as never;
  const service = new FeaturesService(
    none,
    none,
    projects as never,
    none,
    none,
    none,
    none,
    none,
    none,
    people,
    listModel,
  );
  return { service, calls };
}

const items = [
  { name: 'a', open: '{"name":"a"' },
  { name: 'b', open: '{"name":"b"' },
];

describe('FeaturesService.list', () => {
  it('closes each item of the rows, in pieces, when nobody is on the list', async () => {
    const { service, calls } = serviceWith({ items });
    const pieces = await service.list('p');
    expect(calls).toEqual(['people', 'rows']);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(
      '{"features":[{"name":"a","favorite":false},{"name":"b","favorite":false}]}',
    );
  });

  it('answers an empty list for a project without features', async () => {
    const { service } = serviceWith({ items: [] });
    expect(Buffer.concat(await service.list('p')).toString('utf8')).toBe('{"features":[]}');
  });

  it('appends the people and the favorite to the items that have them', async () => {
    const card = { id: 7, name: 'Ada', imageUrl: null };
    const { service, calls } = serviceWith({
      people: new Map([['b', { createdBy: card, collaborators: [card] }]]),
      favorites: new Set(['a']),
      items,
    });
    const body = JSON.parse(Buffer.concat(await service.list('p')).toString('utf8'));
    expect(calls).toEqual(['people', 'rows']);
    expect(body).toEqual({
      features: [
        { name: 'a', favorite: true },
        { name: 'b', createdBy: card, collaborators: { users: [card] }, favorite: false },
      ],
    });
  });
});
