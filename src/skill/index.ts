/**
 * Method packages (SPEC F-SKILL, seed 000 §5.6–5.7): versioned SKILL.md
 * packages that organise existing tools and reference material, bound to the
 * tool versions they need, loaded stage by stage, recorded as adopted only
 * from the request bytes — and never a source of any tool or permission.
 */
export type { BoundPackage, CatalogEntry, CatalogStatus, LoadedStage, NotApplied, Package, PackageOrigin, PlainPackage, Requirement, Resource, MethodStage, StagedPackage } from './types.ts';
export { NAME_PATTERN, parseFrontmatter, splitSkillMd } from './frontmatter.ts';
export { yamlDepthBound } from './yaml-depth.ts';
export type { FrontFields, Manifest, PlainManifest } from './frontmatter.ts';
export { NOT_APPLIED, UNKNOWN_FIELD } from './fields.ts';
export { catalogStatus, PACKAGE_HASH_FORMAT, packageHash, parsePackage } from './package.ts';
export type { PackageReader } from './package.ts';
export { discoverPackages, discoverSkills, diskReader, EMBEDDED_SKILLS, nestedSkills, PROJECT_SKILLS, projectSkillsNotices } from './discover.ts';
export type { DiscoverOptions, Discovery, NestedSkills, RefusedPackage } from './discover.ts';
export { matchingGlob, nestedFolders, relativeToCwd, TOUCH_ARGUMENTS, touchedPaths } from './touched.ts';
export type { Touch } from './touched.ts';
export { catalogOrder, pathsMatches } from './visibility.ts';
export type { HeldPackage, PathsMatch } from './visibility.ts';
export { bindPackage, load } from './bind.ts';
export { catalog, catalogLine } from './catalog.ts';
export type { BoundTool } from './bind.ts';
export { adoption, methodText, toolAdoption } from './adoption.ts';
export type { Adoption, ToolAdoption } from './adoption.ts';
export { lastSkillNamed, SKILL_TOOL, skillResults } from './skill-results.ts';
export type { SkillResult } from './skill-results.ts';
export { plainAdoption, plainMethodText, plainRecord, plainToolAdoption } from './plain.ts';
export type { PlainAdoption, PlainRecord } from './plain.ts';
export { callableTools } from './grant.ts';
export type { CallableTools } from './grant.ts';
export { describeSkills, GRANTS_NOTHING, renderSkillsText } from './describe.ts';
export type { RefusedDescription, SkillDescription, SkillSource, SkillsReport } from './describe.ts';
export { methodSupport } from './support.ts';
export type { MethodBlock, PackageSupport } from './support.ts';
export { SKILL_KINDS } from './kinds.ts';
