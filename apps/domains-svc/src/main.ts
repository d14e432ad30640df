// Built by its issue; replaced below.
