import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { Segment } from './segment.entity';

@Injectable()
export class SegmentsService {
  constructor(@InjectRepository(Segment) private readonly segments: Repository<Segment>) {}

  /** The ids among these that name no segment (one query). */
  async missingIds(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.segments.find({ where: { id: In(ids) }, select: { id: true } });
    const found = new Set(rows.map((row) => row.id));
    return ids.filter((id) => !found.has(id));
  }
}
