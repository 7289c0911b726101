import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TagType } from './tag-type.entity';

@Injectable()
export class TagTypesService {
  constructor(@InjectRepository(TagType) private readonly tagTypes: Repository<TagType>) {}

  /** Whether a tag type of that name exists (a tag body naming an unknown type is a 400). */
  exists(name: string): Promise<boolean> {
    return this.tagTypes.exists({ where: { name } });
  }
}
