// Pad and UnPad's kernel-side tiling structs (PadTiling, UnPadTiling).
#pragma once
