import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../common/database-errors';
import { NotFoundError, ValidationError } from '../common/errors';
import { TagTypesService } from '../tags/tag-types.service';
import { TagsStore } from '../tags/tags.store';
import type { CreateFeatureTagDto } from './dto/create-feature-tag.dto';
import type { UpdateFeatureTagsDto } from './dto/update-feature-tags.dto';
import type { TagDto, TagListDto } from './dto/feature.dto';
import { FeatureLookup } from './feature-lookup';
import { FeatureReadModel } from './feature-read.model';
import { FeatureTag } from './feature-tag.entity';
import { currentPrincipal } from '../common/request-context';
import { EventsService } from '../events/events.service';
import { FeatureTagsStore } from './feature-tags.store';

/**
 * Tags on features. Tags are labels rather than configuration, so archived features can be
 * tagged too (an export by tag selects archived features).
 */
@Injectable()
export class FeatureTagsService {
  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lookup: FeatureLookup,
    private readonly read: FeatureReadModel,
    private readonly tagTypes: TagTypesService,
    private readonly tagRegistry: TagsStore,
    private readonly store: FeatureTagsStore,
  ) {}

  async list(name: string): Promise<TagListDto> {
    await this.lookup.byName(name);
    return { version: 1, tags: await this.read.tags(name) };
  }

  /** Adds a tag; adding one the feature already has changes nothing (`created: false`). */
  async add(name: string, dto: CreateFeatureTagDto): Promise<{ created: boolean; tag: TagDto }> {
    const feature = await this.lookup.byName(name);
    if (!(await this.tagTypes.exists(dto.type))) {
      throw ValidationError.of('/body/type', `Could not find tag type with name ${dto.type}`);
    }
    const tag = { type: dto.type, value: dto.value };
    const key = { featureName: name, tagType: dto.type, tagValue: dto.value };
    if (await this.dataSource.getRepository(FeatureTag).exists({ where: key })) {
      return { created: false, tag };
    }
    try {
      // The tag exists from now on (GET /api/admin/tags), in the same transaction.
      await this.dataSource.transaction(async (tx) => {
        await this.tagRegistry.insertMissing(tx, [tag]);
        await tx.insert(FeatureTag, {
          ...key,
          createdByUserId: currentPrincipal()?.user?.id ?? null,
          createdAt: new Date(),
        });
        await this.events.record(tx, {
          type: 'feature-tagged',
          project: feature.projectId,
          featureName: name,
          data: tag,
        });
      });
    } catch (error) {
      // The same tag added twice at once: the second request finds it there.
      if (isUniqueViolation(error)) return { created: false, tag };
      throw error;
    }
    return { created: true, tag };
  }

  /**
   * Unleash's bulk change of a feature's tags: adds, then removes (a tag in both lists ends up
   * removed), in one transaction. Tags to add must be of existing types (400 naming each one);
   * adding a tag the feature has, or removing one it lacks, changes nothing. Each tag that was
   * put on or taken off has its event (`feature-tagged` / `feature-untagged`), found by comparing
   * the tags before and after inside the transaction, so an unchanged tag has none.
   */
  async update(name: string, dto: UpdateFeatureTagsDto): Promise<TagListDto> {
    const feature = await this.lookup.byName(name);
    const missing = new Set(
      await this.tagTypes.missingNames([...new Set(dto.addedTags.map((tag) => tag.type))]),
    );
    const details = dto.addedTags.flatMap((tag, index) =>
      missing.has(tag.type)
        ? [
            {
              path: `/body/addedTags/${index}/type`,
              message: `Could not find tag type with name ${tag.type}`,
            },
          ]
        : [],
    );
    if (details.length > 0) throw ValidationError.listing(details, 'Unknown tag types');
    const added = dto.addedTags.map((tag) => ({ type: tag.type, value: tag.value }));
    const removed = dto.removedTags.map((tag) => ({ type: tag.type, value: tag.value }));
    return this.dataSource.transaction(async (tx) => {
      const before = await this.read.tags(name, tx);
      await this.tagRegistry.insertMissing(tx, added);
      await this.store.addMissing(tx, name, added, currentPrincipal()?.user?.id ?? null);
      await this.store.removeSome(tx, name, removed);
      const after = await this.read.tags(name, tx);
      const key = (tag: TagDto) => `${tag.type}:${tag.value}`;
      const had = new Set(before.map(key));
      const has = new Set(after.map(key));
      const event = (type: string, tag: TagDto) => ({
        type,
        project: feature.projectId,
        featureName: name,
        ...(type === 'feature-tagged' ? { data: tag } : { preData: tag }),
      });
      await this.events.record(
        tx,
        ...after.filter((tag) => !had.has(key(tag))).map((tag) => event('feature-tagged', tag)),
        ...before.filter((tag) => !has.has(key(tag))).map((tag) => event('feature-untagged', tag)),
      );
      return { version: 1 as const, tags: after };
    });
  }

  async remove(name: string, type: string, value: string): Promise<void> {
    const feature = await this.lookup.byName(name);
    await this.dataSource.transaction(async (tx) => {
      const result = await tx.delete(FeatureTag, {
        featureName: name,
        tagType: type,
        tagValue: value,
      });
      if (!result.affected) {
        throw new NotFoundError(`Feature ${name} has no tag ${type}:${value}`);
      }
      await this.events.record(tx, {
        type: 'feature-untagged',
        project: feature.projectId,
        featureName: name,
        preData: { type, value },
      });
    });
  }
}
