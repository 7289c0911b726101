import type { FeaturePeople } from '../events/events.store';
import type { FeatureListModel } from './feature-list.model';
import type { FeaturePeopleService } from './feature-people.service';
import { FeaturesService } from './features.service';

/** A FeaturesService whose list reads come from these stand-ins; nothing else is reachable. */
function serviceWith(options: {
  people?: Map<string, FeaturePeople>;
  favorites?: Set<string>;
  document: Buffer | null;
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
    documentOf: async () => {
      calls.push('document');
      return options.document;
    },
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
  it('sends the document as the database wrote it when nobody is on the list', async () => {
    const document = Buffer.from('{"features":[{"name":"a","favorite":false}]}');
    const { service, calls } = serviceWith({ document, items });
    await expect(service.list('p')).resolves.toBe(document);
    expect(calls).toEqual(['people', 'document']);
  });

  it('falls back to the rows when the database could not hand the document over', async () => {
    const { service, calls } = serviceWith({ document: null, items });
    const body = (await service.list('p')).toString('utf8');
    expect(calls).toEqual(['people', 'document', 'rows']);
    expect(body).toBe('{"features":[{"name":"a","favorite":false},{"name":"b","favorite":false}]}');
  });

  it('reads the rows and appends the people when a listed feature has any', async () => {
    const card = { id: 7, name: 'Ada', imageUrl: null };
    const { service, calls } = serviceWith({
      people: new Map([['b', { createdBy: card, collaborators: [card] }]]),
      favorites: new Set(['a']),
      document: Buffer.from('never sent'),
      items,
    });
    const body = JSON.parse((await service.list('p')).toString('utf8'));
    expect(calls).toEqual(['people', 'rows']);
    expect(body).toEqual({
      features: [
        { name: 'a', favorite: true },
        { name: 'b', createdBy: card, collaborators: { users: [card] }, favorite: false },
      ],
    });
  });
});
