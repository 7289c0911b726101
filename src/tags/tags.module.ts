import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TagType } from './tag-type.entity';
import { TagTypesService } from './tag-types.service';

@Module({
  imports: [TypeOrmModule.forFeature([TagType])],
  providers: [TagTypesService],
  exports: [TagTypesService],
})
export class TagsModule {}
