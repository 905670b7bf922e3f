import { getMetadataStorage, MetadataStorage } from '../../config/class-validator';

type Rules = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
type Grouped = ReturnType<MetadataStorage['groupByPropertyName']>;

const cached = new WeakSet<MetadataStorage>();
/** The key of a lookup without schema, `always` or strict groups, as the template spells it. */
const PLAIN_LOOKUP = `${undefined}\n${false}\n${false}`;

/**
 * class-validator looks a DTO's rules up again on every validation: it walks every class it knows
 * (`prototype instanceof`, for inherited rules), filters their rules, then groups them by
 * property; that was half of the pipe's CPU on the device list's query and the device token's
 * body (bench/findings.md). The rules are fixed once the DTO classes have loaded, so each answer
 * is kept, per class, until a rule is registered. class-validator still does all the validating,
 * with the very rules it found; lookups with groups (which the service does not use) pass through.
 */
export function cacheValidationRules(storage: MetadataStorage = getMetadataStorage()): void {
  if (cached.has(storage)) return;
  cached.add(storage);
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  let rules = new WeakMap<object, Map<string, Rules>>();
  let grouped = new WeakMap<Rules, Grouped>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups !== undefined && groups.length > 0) {
      return lookUp(target, schema, always, strictGroups, groups);
    }
    // The executor's own lookup (no schema, no options) is nearly every one: its key is made once.
    const key =
      schema === undefined && always === false && strictGroups === false
        ? PLAIN_LOOKUP
        : `${schema}\n${always}\n${strictGroups}`;
    let forTarget = rules.get(target);
    if (forTarget === undefined) rules.set(target, (forTarget = new Map<string, Rules>()));
    let found = forTarget.get(key);
    if (found === undefined)
      forTarget.set(key, (found = lookUp(target, schema, always, strictGroups, groups)));
    return found;
  };
  // The executor only reads the grouping (it filters each property's rules into new arrays).
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (found === undefined) grouped.set(metadata, (found = group(metadata)));
    return found;
  };
  // A class loaded later (or a schema) adds rules: every answer kept so far may change.
  storage.addValidationMetadata = (metadata) => {
    rules = new WeakMap();
    grouped = new WeakMap();
    addRule(metadata);
  };
}
