import { useRef, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { notifySuccess } from './notify.ts';
import { RotateTokenDialog, type RotatableToken } from './RotateTokenDialog.tsx';
import { TokenRevealDialog, type RevealedToken, type TokenRevealHandle } from './TokenRevealDialog.tsx';

/** Which token of a list is being rotated or revoked, and the reveal-once dialog its answers go to. */
export function useTokenActions<T extends RotatableToken>() {
  const reveal = useRef<TokenRevealHandle>(null);
  const [rotating, setRotating] = useState<T | null>(null);
  const [revoking, setRevoking] = useState<T | null>(null);
  return {
    reveal,
    rotating,
    revoking,
    onRotate: setRotating,
    onRevoke: setRevoking,
    /** Hands a created token's plaintext to the reveal dialog (the create dialog's `onCreated`). */
    showCreated: (token: RevealedToken) => reveal.current?.show(token, 'created'),
    closeRotate: () => setRotating(null),
    closeRevoke: () => setRevoking(null),
  };
}

export type TokenActions<T extends RotatableToken> = ReturnType<typeof useTokenActions<T>>;

// Method signatures: react-query's mutate takes wider callbacks than these.
interface RotateMutation {
  mutate(vars: { tokenId: number; expires_at?: string }, opts: { onSuccess: (rotated: RevealedToken) => void }): void;
  reset(): void;
  isPending: boolean;
}
interface RevokeMutation {
  mutate(tokenId: number, opts: { onSuccess: () => void }): void;
  isPending: boolean;
}

/**
 * The dialogs of a token list: rotate (when `rotate` is given), revoke, and the reveal-once
 * dialog that shows the plaintext of a created or rotated token. A rotated token's answer goes
 * straight to the reveal and the mutation is reset, so it is kept nowhere else.
 */
export function TokenActionDialogs<T extends RotatableToken>({
  actions,
  rotate,
  revoke,
  revokeWarning,
  revokedMessage = (t) => `“${t.name}” no longer works.`,
}: {
  actions: TokenActions<T>;
  rotate?: RotateMutation;
  revoke: RevokeMutation;
  /** What revoking breaks, said in the confirm dialog. */
  revokeWarning: ReactNode;
  revokedMessage?: (token: T) => string;
}) {
  const { rotating, revoking, reveal } = actions;
  const confirmRotate = (expiresAt: string) => {
    if (!rotating || !rotate) return;
    rotate.mutate(
      { tokenId: rotating.id, expires_at: expiresAt },
      {
        onSuccess: (rotated) => {
          rotate.reset();
          actions.closeRotate();
          reveal.current?.show(rotated, 'rotated');
        },
      },
    );
  };
  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        notifySuccess('Token revoked', revokedMessage(revoking));
        actions.closeRevoke();
      },
    });
  };
  return (
    <>
      {rotate && <RotateTokenDialog token={rotating} loading={rotate.isPending} onConfirm={confirmRotate} onClose={actions.closeRotate} />}
      <ConfirmDialog
        opened={revoking !== null}
        title={revoking ? `Revoke “${revoking.name}”?` : ''}
        confirmLabel="Revoke token"
        loading={revoke.isPending}
        onConfirm={confirmRevoke}
        onClose={actions.closeRevoke}
      >
        {revokeWarning} A revoked token cannot be restored.
      </ConfirmDialog>
      <TokenRevealDialog ref={reveal} />
    </>
  );
}
