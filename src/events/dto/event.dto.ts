import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDateTimeWithZone, IsIntegerIn, toInteger } from '../../common/query-validators';

@ApiSchema({ name: 'eventSchema' })
export class EventDto {
  @ApiProperty() id: number;
  @ApiProperty({ description: "Unleash's event type names, e.g. feature-created" }) type: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ description: "The user's name, or the token's name" }) createdBy: string;
  @ApiProperty({ type: Number, nullable: true, description: 'null when a token acted alone' })
  createdByUserId: number | null;
  @ApiProperty({ type: String, nullable: true }) project: string | null;
  @ApiProperty({ type: String, nullable: true }) environment: string | null;
  @ApiProperty({ type: String, nullable: true }) featureName: string | null;
  @ApiProperty({ type: Object, nullable: true, description: 'The state after the change' })
  data: unknown;
  @ApiProperty({ type: Object, nullable: true, description: 'The state before the change' })
  preData: unknown;
}

@ApiSchema({ name: 'eventsSchema' })
export class EventListDto {
  @ApiProperty() version: number;
  @ApiProperty({ type: [EventDto], description: 'Newest first' }) events: EventDto[];
  @ApiProperty() totalEvents: number;
}

@ApiSchema({ name: 'eventSearchResponseSchema' })
export class EventSearchResultDto {
  @ApiProperty({ type: [EventDto], description: 'Newest first' }) events: EventDto[];
  @ApiProperty() total: number;
}

@ApiSchema({ name: 'eventQuerySchema' })
export class EventQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) type?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) project?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) feature?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(255) createdBy?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'At or after (ISO 8601, with a zone)' })
  @IsOptional()
  @IsDateTimeWithZone()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'At or before (ISO 8601, with a zone)' })
  @IsOptional()
  @IsDateTimeWithZone()
  to?: string;

  @ApiPropertyOptional({ type: Number, minimum: 0, default: 0 })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerIn(0, 1_000_000_000, 'offset must be an integer from 0')
  offset?: number;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 1000, default: 50 })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerIn(1, 1000, 'limit must be an integer from 1 to 1000')
  limit?: number;
}
