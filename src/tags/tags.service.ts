import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../common/database-errors';
import { NameExistsError, NotFoundError, ValidationError } from '../common/errors';
import { EventsService } from '../events/events.service';
import type { CreateTagDto } from './dto/create-tag.dto';
import type { TagListDto, TagWithVersionDto } from './dto/tag.dto';
import { TagTypesService } from './tag-types.service';
import { TagsStore } from './tags.store';

@Injectable()
export class TagsService {
  constructor(
    private readonly store: TagsStore,
    private readonly tagTypes: TagTypesService,
    private readonly events: EventsService,
  ) {}

  async list(): Promise<TagListDto> {
    return { version: 1, tags: await this.store.list() };
  }

  /** The tags of an existing type (404 for an unknown type, as for any name in a path). */
  async listOfType(type: string): Promise<TagListDto> {
    if (!(await this.tagTypes.exists(type))) throw NotFoundError.named('tag type', type);
    return { version: 1, tags: await this.store.list(type) };
  }

  /** 400 for an unknown type, 409 for a tag that exists already (as in Unleash). */
  async create(dto: CreateTagDto): Promise<TagWithVersionDto> {
    if (!(await this.tagTypes.exists(dto.type))) {
      throw ValidationError.of('/body/type', `Could not find tag type with name ${dto.type}`);
    }
    const tag = { type: dto.type, value: dto.value };
    const taken = () => new NameExistsError(`The tag ${dto.type}:${dto.value} already exists`);
    if (await this.store.exists(tag)) throw taken();
    try {
      await this.events.write({ type: 'tag-created', data: tag }, (tx) =>
        this.store.insertMissing(tx, [tag]),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
    return { version: 1, tag };
  }
}
