import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { TokenType } from '../permissions';

/** Who is calling, in the fields of Unleash's userSchema that Flagkeeper can fill truthfully. */
@ApiSchema({ name: 'userSchema' })
export class MeUserDto {
  @ApiProperty({ description: 'For a token: the id of the API token' }) id: number;
  @ApiProperty({ type: String, nullable: true }) name: string | null;
  @ApiProperty({ type: String, nullable: true }) username: string | null;
  @ApiProperty({ enum: ['User', 'Service Account'] }) accountType: 'User' | 'Service Account';
  @ApiProperty({ description: 'true when the caller is an API token rather than a person' })
  isAPI: boolean;
  @ApiPropertyOptional({ enum: ['admin', 'service'], description: 'The kind of the API token' })
  tokenType?: Extract<TokenType, 'admin' | 'service'>;
  @ApiProperty({ type: [String], description: 'The permission names the caller holds' })
  permissions: string[];
}

@ApiSchema({ name: 'permissionSchema' })
export class MePermissionDto {
  @ApiProperty() permission: string;
  @ApiPropertyOptional({ description: '"*": every project' }) project?: string;
  @ApiPropertyOptional() environment?: string;
}

@ApiSchema({ name: 'meSchema' })
export class MeDto {
  @ApiProperty({ type: MeUserDto }) user: MeUserDto;
  @ApiProperty({ type: [MePermissionDto] }) permissions: MePermissionDto[];
  @ApiProperty({ type: [Object], description: 'Always empty: Flagkeeper keeps no UI feedback' })
  feedback: never[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'boolean' },
    description: 'Splash screens already seen; the welcome dialog counts as seen',
  })
  splash: Record<string, boolean>;
}
