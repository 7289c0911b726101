import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { compareBytes } from '../common/byte-order';
import { currentPrincipal } from '../common/request-context';
import { SegmentsStore } from '../segments/segments.store';
import type { FeatureDto } from './dto/feature.dto';
import type {
  FeatureSearchItemDto,
  FeatureSearchQueryDto,
  FeatureSearchResultDto,
} from './dto/feature-search.dto';
import type { FeaturePeople } from '../events/events.store';
import { FeaturePeopleService } from './feature-people.service';
import { FeatureReadModel } from './feature-read.model';
import { parseFeatureSearch } from './feature-search-query';
import { FeatureSearchModel } from './feature-search.model';
import { StrategiesStore } from './strategies.store';

/**
 * `GET /api/admin/search/features`: one statement picks the page, then the page's features are
 * read with one statement per table (FeatureReadModel) and their segment names with two more,
 * so the count does not depend on the page size or the total.
 */
@Injectable()
export class FeatureSearchService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly model: FeatureSearchModel,
    private readonly read: FeatureReadModel,
    private readonly strategies: StrategiesStore,
    private readonly segments: SegmentsStore,
    private readonly featurePeople: FeaturePeopleService,
  ) {}

  async search(query: FeatureSearchQueryDto): Promise<FeatureSearchResultDto> {
    const filter = parseFeatureSearch(query);
    const { names, total } = await this.model.page(filter, currentPrincipal()?.user?.id);
    if (names.length === 0) return { features: [], total };
    const manager = this.dataSource.manager;
    // Three independent reads, sent together (each may take its own pooled connection).
    const [records, segmentsOf, { people, favorites }] = await Promise.all([
      this.read
        .features({ names }, { strategies: false }, manager)
        .then((found) => new Map(found.map((f) => [f.name, f]))),
      this.segmentNamesOf(names, manager),
      this.featurePeople.of(names),
    ]);
    const features = names
      .map((name) => records.get(name))
      // A feature deleted between the two reads is left out rather than shown half.
      .filter((feature): feature is FeatureDto => feature !== undefined)
      .map((feature) =>
        toSearchItem(
          feature,
          (segmentsOf.get(feature.name) ?? []).sort(compareBytes),
          people.get(feature.name)?.createdBy ?? null,
          favorites.has(feature.name),
        ),
      );
    return { features, total };
  }

  /** The names of the segments that each feature's strategies use. */
  private async segmentNamesOf(
    names: string[],
    manager: EntityManager,
  ): Promise<Map<string, string[]>> {
    const links = await this.strategies.segmentIdsOf({ names }, manager);
    const segmentIds = [...new Set(links.map((link) => link.segmentId))];
    const segmentNames = new Map(
      (await this.segments.namesOf(segmentIds, manager)).map((s) => [s.id, s.name]),
    );
    const segmentsOf = new Map<string, string[]>();
    for (const link of links) {
      const name = segmentNames.get(link.segmentId);
      if (name === undefined) continue;
      segmentsOf.set(link.featureName, [...(segmentsOf.get(link.featureName) ?? []), name]);
    }
    return segmentsOf;
  }
}

function toSearchItem(
  feature: FeatureDto,
  segments: string[],
  creator: FeaturePeople['createdBy'],
  favorite: boolean,
): FeatureSearchItemDto {
  const seen = feature.environments
    .map((env) => env.lastSeenAt)
    .filter((at): at is string => at !== null)
    .sort();
  return {
    name: feature.name,
    description: feature.description,
    // As Unleash does, a feature that is both reads as a parent.
    dependencyType:
      feature.children.length > 0 ? 'parent' : feature.dependencies.length > 0 ? 'child' : null,
    type: feature.type,
    project: feature.project,
    stale: feature.stale,
    favorite,
    impressionData: feature.impressionData,
    createdAt: feature.createdAt,
    archivedAt: feature.archivedAt,
    lastSeenAt: seen.length > 0 ? seen[seen.length - 1] : null,
    // A feature that a token created has nobody as its creator; Unleash reads an unknown one so.
    createdBy: creator
      ? { id: creator.id, name: creator.name, imageUrl: creator.imageUrl ?? '' }
      : { id: 0, name: 'unknown', imageUrl: '' },
    environments: feature.environments,
    segments,
    tags: feature.tags,
    lifecycle: feature.lifecycle,
  };
}
