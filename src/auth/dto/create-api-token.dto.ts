import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Matches,
  Min,
} from 'class-validator';
import { IsResourceName, NAME_PATTERN } from '../../common/validators';
import { TOKEN_TYPES, TokenType } from '../permissions';

@ApiSchema({ name: 'createApiTokenSchema' })
export class CreateApiTokenDto {
  @ApiProperty()
  @IsString()
  @Length(1, 255)
  tokenName: string;

  @ApiProperty({ enum: TOKEN_TYPES })
  @IsIn(TOKEN_TYPES, { message: `type must be one of ${TOKEN_TYPES.join(', ')}` })
  type: TokenType;

  @ApiPropertyOptional({ description: 'Environment of a client or frontend token' })
  @IsOptional()
  @IsResourceName()
  environment?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Projects of a client or frontend token; * for all',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Matches(new RegExp(`(${NAME_PATTERN.source})|^\\*$`), {
    each: true,
    message: 'each project must be a project id or *',
  })
  projects?: string[];

  @ApiPropertyOptional({ description: 'Role of a service token' })
  @IsOptional()
  @IsInt()
  @Min(1)
  roleId?: number;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expiresAt must be an ISO 8601 date-time' })
  expiresAt?: string;
}
