import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { NotFoundError } from '../common/errors';
import { Project } from './project.entity';
import { ProjectEnvironment } from './project-environment.entity';

@Injectable()
export class ProjectsService {
  constructor(
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    @InjectRepository(ProjectEnvironment) private readonly links: Repository<ProjectEnvironment>,
  ) {}

  /** For routes that name a project in the path: 404 when it does not exist. */
  async assertExists(id: string): Promise<void> {
    if (!(await this.projects.exists({ where: { id } })))
      throw NotFoundError.named('project', id, 'id');
  }

  /** The environments the project is linked to, by name. */
  async linkedEnvironments(projectId: string): Promise<string[]> {
    const rows = await this.links.find({ where: { projectId }, select: { environment: true } });
    return rows.map((row) => row.environment).sort();
  }
}
