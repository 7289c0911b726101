import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { NameExistsError, NotFoundError } from '../common/errors';
import { EventsService } from '../events/events.service';
import { CreateTagTypeDto, UpdateTagTypeDto } from './dto/create-tag-type.dto';
import { TagTypeDto, TagTypeListDto } from './dto/tag-type.dto';
import { TagType } from './tag-type.entity';
import { assertSameAsPath, rejectDuplicateName } from '../common/naming';

/** How errors name this kind of thing; create and validate give the same 409. */
const KIND = 'tag type';

@Injectable()
export class TagTypesService {
  constructor(
    @InjectRepository(TagType) private readonly tagTypes: Repository<TagType>,
    private readonly events: EventsService,
  ) {}

  /** Whether a tag type of that name exists (a tag body naming an unknown type is a 400). */
  exists(name: string): Promise<boolean> {
    return this.tagTypes.exists({ where: { name } });
  }

  /** The names among these that name no tag type (one query). */
  async missingNames(names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.tagTypes.find({ where: { name: In(names) }, select: { name: true } });
    const found = new Set(rows.map((row) => row.name));
    return names.filter((name) => !found.has(name));
  }

  /** By name (byte order). */
  async list(): Promise<TagTypeListDto> {
    const rows = await this.tagTypes.find({ order: { name: 'ASC' } });
    return { version: 1, tagTypes: rows.map((row) => this.map(row)) };
  }

  async get(name: string): Promise<TagTypeDto> {
    return this.map(await this.findOrFail(name));
  }

  /**
   * What create checks beyond its DTO: that the name is free. The create form's validate route
   * calls this with the whole create body and answers it back as the tag type create would store.
   */
  async validate(dto: CreateTagTypeDto): Promise<TagTypeDto> {
    if (await this.tagTypes.exists({ where: { name: dto.name } })) {
      throw NameExistsError.named(KIND, dto.name);
    }
    return this.map(this.newRow(dto));
  }

  async create(dto: CreateTagTypeDto): Promise<TagTypeDto> {
    const row = this.newRow(dto);
    await rejectDuplicateName(KIND, dto.name, () =>
      this.events.write({ type: 'tag-type-created', data: this.map(row) }, (tx) =>
        tx.insert(TagType, row),
      ),
    );
    return this.map(row);
  }

  async update(name: string, dto: UpdateTagTypeDto): Promise<TagTypeDto> {
    assertSameAsPath('name', dto.name, name);
    const tagType = await this.findOrFail(name);
    const changes: Partial<TagType> = {};
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.icon !== undefined) changes.icon = dto.icon;
    if (Object.keys(changes).length > 0) {
      await this.events.write(
        {
          type: 'tag-type-updated',
          data: this.map({ ...tagType, ...changes }),
          preData: this.map(tagType),
        },
        (tx) => tx.update(TagType, { name }, changes),
      );
    }
    return this.map({ ...tagType, ...changes });
  }

  /** As in Unleash, the tags of this type go with it (the foreign key cascades). */
  async remove(name: string): Promise<void> {
    const tagType = await this.findOrFail(name);
    await this.events.write({ type: 'tag-type-deleted', preData: this.map(tagType) }, (tx) =>
      tx.delete(TagType, { name }),
    );
  }

  private async findOrFail(name: string): Promise<TagType> {
    const tagType = await this.tagTypes.findOne({ where: { name } });
    if (!tagType) throw NotFoundError.named('tag type', name);
    return tagType;
  }

  private newRow(dto: CreateTagTypeDto): TagType {
    return {
      name: dto.name,
      description: dto.description ?? null,
      icon: dto.icon ?? null,
      createdAt: new Date(),
    };
  }

  private map(row: TagType): TagTypeDto {
    return { name: row.name, description: row.description, icon: row.icon };
  }
}
