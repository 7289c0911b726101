import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsString, Length, Max, Min } from 'class-validator';
import { IsResourceName, IsOptionalNotNull } from '../../common/validators';

/** The known environment types; others are accepted (rules.md §4). */
export const KNOWN_ENVIRONMENT_TYPES = ['development', 'test', 'preproduction', 'production'];

// sort_order is a 32-bit integer on MySQL; out-of-range values are refused here, not by the driver.
export const SORT_ORDER_MIN = -2147483648;
export const SORT_ORDER_MAX = 2147483647;

@ApiSchema({ name: 'createEnvironmentSchema' })
export class CreateEnvironmentDto {
  @ApiProperty({ description: 'Name of the environment; cannot be changed later' })
  @IsResourceName()
  name: string;

  @ApiProperty({
    description: `Type of the environment; known types: ${KNOWN_ENVIRONMENT_TYPES.join(', ')}; others are accepted`,
    example: 'development',
  })
  @IsString({ message: 'type must be a string' })
  @Length(1, 100, { message: 'type must be 1 to 100 characters long' })
  type: string;

  @ApiPropertyOptional({
    description: 'Position in lists (lower first); default: after the last environment',
  })
  @IsOptionalNotNull()
  @IsInt({ message: 'sortOrder must be an integer' })
  @Min(SORT_ORDER_MIN)
  @Max(SORT_ORDER_MAX)
  sortOrder?: number;

  @ApiPropertyOptional({
    default: false,
    description: 'A protected environment cannot be updated or deleted',
  })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'protected must be a boolean' })
  protected?: boolean;
}
