export { discoverUserSkills, parseSkillFile, readSkillFile, SkillFileError, userSkillsDir, type SkillFile, type SkillProblem } from './skillFiles.ts';
export {
  findInjectionPhrases,
  SkillCatalog,
  UnknownSkillError,
  type PluginSkillInput,
  type SkillCatalogOptions,
  type SkillEntry,
  type SkillView,
} from './skillCatalog.ts';
