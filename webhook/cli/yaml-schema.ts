// The YAML schema the CLI parses with: kubectl's reading (sigs.k8s.io/yaml over go-yaml, YAML 1.1) where js-yaml's
// default (YAML 1.2) would give a different value for the same manifest.
import yaml from 'js-yaml';

const { types } = yaml as unknown as { types: Record<'null' | 'bool' | 'int' | 'float' | 'merge', yaml.Type> };

const octal11 = /^[-+]?0[0-7_]*[0-7][0-7_]*$/;

/**
 * js-yaml's int, but YAML 1.1 octal `0644` first: go-yaml reads it as 420 (strconv.ParseInt with base 0), js-yaml's
 * YAML 1.2 int as 644, which would turn a volume's `defaultMode: 0644` into an invalid mode. One type, because a
 * schema keeps one implicit type per tag. Load only: the CLI prints with js-yaml's default schema.
 */
const int11 = new yaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: unknown) => (typeof data === 'string' && octal11.test(data)) || types.int.resolve(data),
  construct: (data: string) => {
    if (!octal11.test(data)) return types.int.construct(data);
    const sign = data.startsWith('-') ? -1 : 1;
    return sign * parseInt(data.replace(/^[-+]/, '').replace(/_/g, ''), 8);
  },
});

/**
 * js-yaml's core schema (null, bool, int, float as YAML 1.2 reads them) with YAML 1.1 octal ints and merge keys
 * (`<<`); no timestamp type, so an unquoted date in an annotation stays the string kubectl sees (go-yaml keeps
 * timestamps decoded into interface{} as strings); no !!binary, !!omap, !!pairs or !!set, which no Kubernetes field
 * takes. Booleans stay YAML 1.2's (`yes` is a string), laxer than kubectl, which refuses `yes` for a string field.
 */
export const kubectlSchema = yaml.FAILSAFE_SCHEMA.extend({ implicit: [types.null, types.bool, int11, types.float, types.merge] });
