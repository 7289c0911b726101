import { ValidationError } from '../common/errors';
import type { ExportQueryDto } from './dto/export-query.dto';
import { selectionOf } from './export-selection';

const query = (selectors: Partial<ExportQueryDto>): ExportQueryDto => ({
  environment: 'development',
  ...selectors,
});

describe('selectionOf: the first rule that applies (rules.md §6)', () => {
  it('tag wins over everything', () => {
    expect(selectionOf(query({ tag: 'beta', features: ['a'], project: 'p' }))).toEqual({
      rule: 'tag',
      tag: 'beta',
    });
  });

  it('then non-empty feature names, without repeats', () => {
    expect(selectionOf(query({ features: ['b', 'a', 'b'], project: 'p' }))).toEqual({
      rule: 'names',
      names: ['b', 'a'],
    });
  });

  it('then the project, also next to features: []', () => {
    expect(selectionOf(query({ project: 'p' }))).toEqual({ rule: 'project', projectId: 'p' });
    expect(selectionOf(query({ features: [], project: 'p' }))).toEqual({
      rule: 'project',
      projectId: 'p',
    });
  });

  it('then features: [] alone: all features', () => {
    expect(selectionOf(query({ features: [] }))).toEqual({ rule: 'all' });
  });

  it('needs one selector', () => {
    expect(() => selectionOf(query({ downloadFile: true }))).toThrow(ValidationError);
  });
});
