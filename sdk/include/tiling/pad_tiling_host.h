// The host side of Pad and UnPad: their tiling functions and temporary sizes.
#pragma once
