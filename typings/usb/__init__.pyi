from usb import backend as backend, core as core, util as util
