import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { LegalValueDto } from './create-context-field.dto';

/** The seed's ContextField. */
@ApiSchema({ name: 'contextFieldSchema' })
export class ContextFieldDto {
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() stickiness: boolean;
  @ApiProperty() sortOrder: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) createdAt: string | null;
  @ApiProperty({ type: [LegalValueDto], description: 'In the order they were given' })
  legalValues: LegalValueDto[];
}
