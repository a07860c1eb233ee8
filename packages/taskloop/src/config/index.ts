// @conclave/taskloop/config: the project config's file name, schema and the deprecated loader.
// readProjectConfig and ProjectConfig are on the package's main entry.
export type { LoadedProjectConfig, ProjectConfigResult } from './project-config.js';
export { loadProjectConfig, PROJECT_CONFIG_FILE, projectConfigSchema } from './project-config.js';
