import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
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
  ValidateIf,
} from 'class-validator';
import { IsResourceName, NAME_PATTERN } from '../../common/validators';
import { TOKEN_TYPES, TokenType } from '../permissions';

/** Unleash's admin UI sends `CLIENT`, `FRONTEND`, `ADMIN`; newer clients say `backend`. */
function tokenTypeOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const type = value.toLowerCase();
  return type === 'backend' ? 'client' : type;
}

@ApiSchema({ name: 'createApiTokenSchema' })
export class CreateApiTokenDto {
  @ApiProperty()
  @IsString()
  @Length(1, 255)
  tokenName: string;

  @ApiProperty({
    enum: TOKEN_TYPES,
    description: 'In any letter case; `backend` is taken as `client` (Unleash renamed it)',
  })
  @Transform(({ value }: { value: unknown }) => tokenTypeOf(value))
  @IsIn(TOKEN_TYPES, { message: `type must be one of ${TOKEN_TYPES.join(', ')}` })
  type: TokenType;

  @ApiPropertyOptional({
    description: 'Environment of a client or frontend token; an admin token may say `*`',
  })
  @IsOptional()
  @ValidateIf((_dto: object, value: unknown) => value !== '*')
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
