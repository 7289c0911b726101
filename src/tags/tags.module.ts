import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TagType } from './tag-type.entity';
import { TagTypesController } from './tag-types.controller';
import { TagTypesService } from './tag-types.service';
import { TagTypesStore } from './tag-types.store';

@Module({
  imports: [TypeOrmModule.forFeature([TagType])],
  controllers: [TagTypesController],
  providers: [TagTypesService, TagTypesStore],
  exports: [TagTypesService, TagTypesStore],
})
export class TagsModule {}
