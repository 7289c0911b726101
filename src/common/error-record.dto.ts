import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'errorDetailSchema' })
export class ErrorDetailDto {
  @ApiProperty({ example: '/body/name', description: 'Where in the request the problem is' })
  path: string;

  @ApiProperty() message: string;
}

/** The seed's error record, which every error response carries (rules.md §2). */
@ApiSchema({ name: 'errorSchema' })
export class ErrorRecordDto {
  @ApiProperty({ format: 'uuid', description: 'ID of the error instance; also in the log line' })
  id: string;

  @ApiProperty({ example: 'ValidationError', description: 'Name of the error kind' })
  name: string;

  @ApiProperty({ description: 'Description of what went wrong' })
  message: string;

  @ApiPropertyOptional({ type: [ErrorDetailDto], description: 'Present on validation errors' })
  details?: ErrorDetailDto[];

  @ApiPropertyOptional({ type: [String], description: 'Present on permission errors' })
  permissions?: string[];
}
