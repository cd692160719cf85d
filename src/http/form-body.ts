import qs from 'qs';

type FormValue = string | string[] | FormObject | undefined;
interface FormObject {
  [key: string]: FormValue;
}

/*
 * qs reads the bracket keys of an HTML form (`formData[Question]=Answer`, spec 2.3) into one nested
 * object. Then spec 4 rule 1: a repeated field is joined with a comma. An empty input is a field
 * left blank, so it is dropped and a required one is reported as missing.
 */
export function parseFormBody(body: string): Record<string, unknown> {
  const parsed = qs.parse(body, {
    depth: 1,
    duplicates: 'combine',
    plainObjects: true,
    allowPrototypes: true,
    parameterLimit: 1000,
    arrayLimit: 100,
  }) as FormObject;
  return normalize(parsed);
}

function normalize(object: FormObject): Record<string, unknown> {
  const result: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(object)) {
    const flat = Array.isArray(value) ? value.filter((item) => item !== '').join(',') : value;
    if (flat === '' || flat === undefined) continue;
    result[key] = typeof flat === 'object' ? normalize(flat) : flat;
  }
  return result;
}
