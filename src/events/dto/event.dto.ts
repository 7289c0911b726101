import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsIntegerIn, toInteger } from '../../common/query-validators';

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

@ApiSchema({ name: 'eventCreatorSchema' })
export class EventCreatorDto {
  @ApiProperty({ description: "The user's id" }) id: number;
  @ApiProperty({ description: "The user's current name" }) name: string;
}

@ApiSchema({ name: 'eventSearchResponseSchema' })
export class EventSearchResultDto {
  @ApiProperty({ type: [EventDto], description: 'Newest first' }) events: EventDto[];
  @ApiProperty() total: number;
}

const LIST_FORM = "One value, or Unleash's operator form: IS:<value> or IS_ANY_OF:<value>,<value>";

@ApiSchema({ name: 'eventQuerySchema' })
export class EventQueryDto {
  @ApiPropertyOptional({
    description: LIST_FORM,
    example: 'IS_ANY_OF:feature-created,feature-archived',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  type?: string;

  @ApiPropertyOptional({ description: LIST_FORM, example: 'IS:default' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  project?: string;

  @ApiPropertyOptional({ description: LIST_FORM, example: 'my-feature' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  feature?: string;

  @ApiPropertyOptional({ description: LIST_FORM, example: 'IS:production' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  environment?: string;

  @ApiPropertyOptional({
    description:
      "The creator's recorded name (a user's name or a token's), or in operator form their user ids: IS:<id> or IS_ANY_OF:<id>,<id>",
    example: 'IS_ANY_OF:1,2',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  createdBy?: string;

  @ApiPropertyOptional({
    description:
      'At or after: an ISO 8601 date-time with a zone, or IS:YYYY-MM-DD (from that UTC day)',
    example: 'IS:2026-01-01',
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  from?: string;

  @ApiPropertyOptional({
    description:
      'At or before: an ISO 8601 date-time with a zone, or IS:YYYY-MM-DD (through that UTC day)',
    example: 'IS:2026-01-31',
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
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
