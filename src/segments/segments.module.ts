import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContextFieldsModule } from '../context-fields/context-fields.module';
import { Segment } from './segment.entity';
import { SegmentsService } from './segments.service';

@Module({
  imports: [TypeOrmModule.forFeature([Segment]), ContextFieldsModule],
  providers: [SegmentsService],
  exports: [SegmentsService],
})
export class SegmentsModule {}
