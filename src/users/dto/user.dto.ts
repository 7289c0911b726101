import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import {
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

/** A user as the API shows it: never the password or its hash. */
@ApiSchema({ name: 'userAdminSchema' })
export class UserDto {
  @ApiProperty() id: number;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) username: string | null;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
  @ApiProperty({ type: String, nullable: true }) imageUrl: string | null;
  @ApiProperty({
    description: 'The id of the root role: Admin (1), Editor (2), Viewer (3) or custom',
  })
  rootRole: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) seenAt: string | null;
  @ApiProperty({ description: 'Always false: API tokens are not users' }) isAPI: boolean;
}

@ApiSchema({ name: 'usersSchema' })
export class UserListDto {
  @ApiProperty({ type: [UserDto] }) users: UserDto[];
}

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

@ApiSchema({ name: 'createUserSchema' })
export class CreateUserDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Letters, digits and . _ - @' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._@-]{1,100}$/, {
    message: 'username must be 1 to 100 letters, digits or . _ - @',
  })
  username?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(255)
  email?: string;

  @ApiPropertyOptional({ maxLength: 2048 })
  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true })
  @MaxLength(2048)
  imageUrl?: string;

  @ApiProperty({ description: 'The id of the root role' })
  @IsInt()
  @Min(1)
  rootRole: number;

  @ApiPropertyOptional({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, writeOnly: true })
  @IsOptional()
  @IsString()
  @MinLength(PASSWORD_MIN)
  @MaxLength(PASSWORD_MAX)
  password?: string;
}

@ApiSchema({ name: 'updateUserSchema' })
export class UpdateUserDto extends PartialType(CreateUserDto) {}

@ApiSchema({ name: 'changePasswordSchema' })
export class ChangePasswordDto {
  @ApiProperty({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, writeOnly: true })
  @IsString()
  @MinLength(PASSWORD_MIN)
  @MaxLength(PASSWORD_MAX)
  password: string;
}

@ApiSchema({ name: 'loginSchema' })
export class LoginDto {
  @ApiProperty({ description: 'The username or the email' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  username: string;

  @ApiProperty({ writeOnly: true })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX)
  password: string;
}
