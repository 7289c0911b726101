import { Module } from '@nestjs/common';
import { SegmentsStore } from './segments.store';

/** The segments store alone, for projects and context fields, which SegmentsModule imports. */
@Module({ providers: [SegmentsStore], exports: [SegmentsStore] })
export class SegmentsStoreModule {}
