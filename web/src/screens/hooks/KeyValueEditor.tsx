import { ActionIcon, Badge, Button, Group, Input, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { sentence } from '../../format.ts';
import { IconPlus, IconTrash } from '../../components/icons.tsx';
import type { HookFormValues, ListField } from './hook-form-model.ts';

const MAX_ROWS = 20;

/**
 * Key/value rows for custom headers and URL variables. Values are secrets the API never returns:
 * a saved list shows its keys only, and "Replace" asks for the whole list again, values included.
 */
export function KeyValueEditor({
  name,
  label,
  noun,
  description,
  keyPlaceholder,
  valuePlaceholder,
  existingKeys,
  suggestedKeys = [],
}: {
  name: ListField;
  label: string;
  /** "header" → "Add header", "Header 1 name". */
  noun: string;
  description: React.ReactNode;
  keyPlaceholder: string;
  valuePlaceholder: string;
  /** Keys of the saved list (editing), empty when creating. */
  existingKeys: string[];
  /** Keys the user probably needs (the URL's {placeholders}), offered as one-click rows. */
  suggestedKeys?: string[];
}) {
  const { control, register, setValue, formState, setFocus } = useFormContext<HookFormValues>();
  const modeName = `${name}_mode` as const;
  const mode = useWatch({ control, name: modeName });
  const { fields, append, remove, replace } = useFieldArray({ control, name });
  const rows = useWatch({ control, name });
  const missing = suggestedKeys.filter((k) => !rows.some((r) => r.key === k));
  const errors = formState.errors[name];
  const listError = sentence(errors?.message ?? errors?.root?.message);
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const headingId = `${name}-label`;

  const startReplacing = () => {
    setValue(modeName, 'replace', { shouldDirty: true });
    setTimeout(() => (fields.length ? setFocus(`${name}.0.value`) : undefined), 0);
  };
  const keepSaved = () => {
    replace(existingKeys.map((key) => ({ key, value: '' })));
    setValue(modeName, 'keep', { shouldDirty: true });
  };

  return (
    <Input.Wrapper
      label={<span id={headingId}>{label}</span>}
      description={description}
      error={listError}
      inputWrapperOrder={['label', 'description', 'input', 'error']}
    >
      <Stack gap="xs" mt={6} role="group" aria-labelledby={headingId}>
        {mode === 'keep' ? (
          <>
            <Group gap={6}>
              {existingKeys.map((key) => (
                <Badge key={key} variant="light" color="gray" tt="none" ff="monospace" fw={500} size="lg">
                  {key} = ••••••
                </Badge>
              ))}
            </Group>
            <Group gap="xs">
              <Text size="xs" c="dimmed" style={{ flex: '1 1 240px' }}>
                Saved values are kept and never shown. To change any of them, enter the whole list again.
              </Text>
              <Button size="compact-sm" variant="light" onClick={startReplacing}>
                Replace {noun}s
              </Button>
            </Group>
          </>
        ) : (
          <>
            {fields.length === 0 && (
              <Text size="sm" c="dimmed">
                No {noun}s.
              </Text>
            )}
            {fields.map((field, i) => {
              const rowErrors = Array.isArray(errors) ? errors[i] : undefined;
              return (
                <Group key={field.id} gap="xs" align="flex-start" wrap="nowrap">
                  <TextInput
                    aria-label={`${Noun} ${i + 1} name`}
                    placeholder={keyPlaceholder}
                    autoComplete="off"
                    spellCheck={false}
                    styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                    style={{ flex: '1 1 40%' }}
                    error={sentence(rowErrors?.key?.message)}
                    {...register(`${name}.${i}.key`)}
                  />
                  <PasswordInput
                    aria-label={`${Noun} ${i + 1} value`}
                    placeholder={valuePlaceholder}
                    autoComplete="new-password"
                    style={{ flex: '1 1 60%' }}
                    error={sentence(rowErrors?.value?.message)}
                    {...register(`${name}.${i}.value`)}
                  />
                  <ActionIcon variant="subtle" color="gray" size={36} onClick={() => remove(i)} aria-label={`Remove ${noun} ${i + 1}`}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              );
            })}
            <Group gap="xs">
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconPlus size={14} />}
                onClick={() => append({ key: '', value: '' }, { shouldFocus: true })}
                disabled={fields.length >= MAX_ROWS}
              >
                Add {noun}
              </Button>
              {missing.map((k) => (
                <Button
                  key={k}
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => append({ key: k, value: '' }, { shouldFocus: false })}
                  disabled={fields.length >= MAX_ROWS}
                >
                  {`Add {${k}}`}
                </Button>
              ))}
              {existingKeys.length > 0 && (
                <Button size="compact-sm" variant="subtle" color="gray" onClick={keepSaved}>
                  Keep the saved {noun}s
                </Button>
              )}
              {existingKeys.length > 0 && (
                <Text size="xs" c="orange">
                  The list below replaces the saved one{fields.length === 0 ? ': saving removes every ' + noun : ''}.
                </Text>
              )}
            </Group>
          </>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
