import { Checkbox, SimpleGrid, Text } from '@mantine/core';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import { sentence } from '../format.ts';

/** A form's scopes as checkboxes, each with what it allows; "at least one" said in words. */
export function ScopeCheckboxes<V extends FieldValues>({ control, name, scopes, help, description }: { control: Control<V>; name: Path<V>; scopes: readonly string[]; help: Record<string, string>; description?: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Checkbox.Group
          label="Scopes"
          description={description}
          withAsterisk
          inputWrapperOrder={['label', 'description', 'error', 'input']}
          value={(field.value as string[] | undefined) ?? []}
          onChange={field.onChange}
          error={fieldState.error?.type === 'too_small' ? 'Select at least one scope' : sentence(fieldState.error?.message)}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="xs">
            {scopes.map((s, i) => (
              <Checkbox key={s} value={s} ref={i === 0 ? field.ref : undefined} label={<Text size="sm" ff="monospace" span>{s}</Text>} description={help[s]} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
      )}
    />
  );
}
