import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** A stored feedback record (the seed's feedbackSchema): every field present, null when not given. */
@ApiSchema({ name: 'feedbackSchema' })
export class FeedbackDto {
  @ApiProperty() id: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty() category: string;
  @ApiProperty({ type: String, nullable: true }) userType: string | null;
  @ApiProperty({ type: Number, nullable: true }) difficultyScore: number | null;
  @ApiProperty({ type: String, nullable: true }) positive: string | null;
  @ApiProperty({ type: String, nullable: true }) areasForImprovement: string | null;
}

@ApiSchema({ name: 'feedbackListSchema' })
export class FeedbackListDto {
  @ApiProperty({ type: [FeedbackDto], description: 'Newest first' })
  feedback: FeedbackDto[];
}

@ApiSchema({ name: 'feedbackCategorySummarySchema' })
export class FeedbackCategorySummaryDto {
  @ApiProperty() category: string;
  @ApiProperty({ description: 'Number of feedback records in the category' }) count: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Mean of the non-null difficulty scores; null when there is none',
  })
  averageDifficultyScore: number | null;
}

@ApiSchema({ name: 'feedbackSummarySchema' })
export class FeedbackSummaryDto {
  @ApiProperty({ type: [FeedbackCategorySummaryDto], description: 'By category, in byte order' })
  categories: FeedbackCategorySummaryDto[];
}
