import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { toNullableNumber, toNumber } from '../database/sql-values';
import { Feedback } from './feedback.entity';
import { FeedbackDto, FeedbackListDto, FeedbackSummaryDto } from './dto/feedback.dto';
import { FeedbackSummaryQueryDto, ListFeedbackQueryDto } from './dto/list-feedback.dto';
import { ProvideFeedbackDto } from './dto/provide-feedback.dto';

export const DEFAULT_FEEDBACK_LIMIT = 100;

@Injectable()
export class FeedbackService {
  constructor(@InjectRepository(Feedback) private readonly feedback: Repository<Feedback>) {}

  /**
   * Stores one record with a single INSERT and answers from what was sent: createdAt is set here
   * and the id comes back with the insert, so no read-back is needed. The feedback endpoint is
   * the hot path of this service, hence the care.
   */
  async provide(dto: ProvideFeedbackDto): Promise<FeedbackDto> {
    const row = {
      category: dto.category,
      userType: dto.userType ?? null,
      difficultyScore: dto.difficultyScore ?? null,
      positive: dto.positive ?? null,
      areasForImprovement: dto.areasForImprovement ?? null,
      createdAt: new Date(),
    };
    const result = await this.feedback.insert(row);
    return this.map({ ...row, id: toNumber(result.identifiers[0].id) });
  }

  /** Newest first; ties (same millisecond) by id, descending. */
  async list(query: ListFeedbackQueryDto): Promise<FeedbackListDto> {
    const select = this.feedback
      .createQueryBuilder('f')
      .orderBy('f.createdAt', 'DESC')
      .addOrderBy('f.id', 'DESC')
      .limit(query.limit ?? DEFAULT_FEEDBACK_LIMIT)
      .offset(query.offset ?? 0);
    if (query.category !== undefined)
      select.andWhere('f.category = :category', { category: query.category });
    if (query.since !== undefined)
      select.andWhere('f.createdAt >= :since', { since: new Date(query.since) });
    const rows = await select.getMany();
    return { feedback: rows.map((row) => this.map(row)) };
  }

  /** Count and mean difficulty per category, computed by the database in one grouped query. */
  async summary(query: FeedbackSummaryQueryDto): Promise<FeedbackSummaryDto> {
    const select = this.feedback
      .createQueryBuilder('f')
      .select('f.category', 'category')
      .addSelect('COUNT(*)', 'count')
      .addSelect('AVG(f.difficultyScore)', 'average')
      .groupBy('f.category')
      // Byte order of the UTF-8 names on both databases (binary collation on MySQL).
      .orderBy('f.category', 'ASC');
    if (query.since !== undefined)
      select.where('f.createdAt >= :since', { since: new Date(query.since) });
    const rows = await select.getRawMany<{ category: string; count: unknown; average: unknown }>();
    return {
      categories: rows.map((row) => ({
        category: row.category,
        count: toNumber(row.count),
        averageDifficultyScore: toNullableNumber(row.average),
      })),
    };
  }

  private map(row: Feedback): FeedbackDto {
    return {
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      category: row.category,
      userType: row.userType,
      difficultyScore: row.difficultyScore,
      positive: row.positive,
      areasForImprovement: row.areasForImprovement,
    };
  }
}
