import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { SeedDefaults1763700000001 } from './1763700000001-seed-defaults';
import { PeopleAndEvents1763800000000 } from './1763800000000-people-and-events';
import { Tags1763900000000 } from './1763900000000-tags';
import { AuthVersion1764000000000 } from './1764000000000-auth-version';
import { NoPadCollation1764100000000 } from './1764100000000-no-pad-collation';
import { FeatureSearchIndex1764200000000 } from './1764200000000-feature-search-index';
import { WriteClaims1764300000000 } from './1764300000000-write-claims';
import { ListIndexes1764400000000 } from './1764400000000-list-indexes';
import { ListItems1764500000000 } from './1764500000000-list-items';
import { ExportStrategyItems1764600000000 } from './1764600000000-export-strategy-items';
import { ExportKeptRuns1764700000000 } from './1764700000000-export-kept-runs';
import { ListOrderIndex1764800000000 } from './1764800000000-list-order-index';

/** Every migration, in order. A new migration is added here as well as in its own file. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  SeedDefaults1763700000001,
  PeopleAndEvents1763800000000,
  Tags1763900000000,
  AuthVersion1764000000000,
  NoPadCollation1764100000000,
  FeatureSearchIndex1764200000000,
  WriteClaims1764300000000,
  ListIndexes1764400000000,
  ListItems1764500000000,
  ExportStrategyItems1764600000000,
  ExportKeptRuns1764700000000,
  ListOrderIndex1764800000000,
];
