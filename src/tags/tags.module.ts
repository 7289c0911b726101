import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Tag } from './tag.entity';
import { TagType } from './tag-type.entity';
import { TagTypesController } from './tag-types.controller';
import { TagTypesService } from './tag-types.service';
import { TagTypesStore } from './tag-types.store';
import { TagsController } from './tags.controller';
import { TagsService } from './tags.service';
import { TagsStore } from './tags.store';

@Module({
  imports: [TypeOrmModule.forFeature([TagType, Tag])],
  controllers: [TagTypesController, TagsController],
  providers: [TagTypesService, TagTypesStore, TagsService, TagsStore],
  exports: [TagTypesService, TagTypesStore, TagsStore],
})
export class TagsModule {}
